"""Language knowledge in one place: what every stage needs to know about English and Spanish words.

- :mod:`~redactdesk.lang.lexicon`: the detection lexicon (resources/detect/lexicon_<lang>.yaml) and
  the word lists beside it.
- :mod:`~redactdesk.lang.calendar`: month and weekday names, from Babel's locale data.
- :mod:`~redactdesk.lang.digits`: digit and number words, and the words a recogniser writes for a digit.
- :mod:`~redactdesk.lang.alphabet`: spelling alphabets (NATO, the language's list), letter names and
  Whisper's fused spellings ("Udeúbeda" = U de Úbeda).
- :mod:`~redactdesk.lang.folding`: accent folding and ASCII keys.
- :mod:`~redactdesk.lang.names`: Faker's name and place lists, loaded once.

It imports only :mod:`redactdesk.core`, :mod:`redactdesk.resources` and third-party packages, so
every other package (asr, detect, substitute, synth, learn, audio, risk) can take its words from here.
"""
