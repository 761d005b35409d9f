"""The speaker named beside a quotation in written text is a person, whatever else the words are."""

import pytest

from redactdesk.detect.quotations import quotation_speakers
from redactdesk.detect.sources import DetectDoc


def speakers(text, language="en"):
    doc = DetectDoc.from_words(text.split(), language)
    return [" ".join(doc.words[a:b]) for a, b in quotation_speakers(doc)]


@pytest.mark.parametrize("text, speaker", [
    ('"That was owed to me," says Player.', "Player."),
    ('"Fine," Player said.', "Player"),
    ('"I know," said Mary Ann Evans.', "Mary Ann Evans."),
    ('"Fine," said Grace, smiling.', "Grace,"),
    ("“Not again,” replied Okafor.", "Okafor."),
])
def test_the_capitalised_words_beside_a_quotations_reporting_verb_are_its_speaker(text, speaker):
    assert speakers(text) == [speaker]


def test_spanish_reporting_verbs_name_the_speaker_too():
    assert speakers('"Ya está", dijo Paloma.', "es") == ["Paloma."]


@pytest.mark.parametrize("text", [
    '"Go home," he said.',  # a pronoun
    '"Go home." The man said nothing.',  # a stop word opens the words
    'The report said Paris was chosen.',  # no quotation
    '"fine," said grace.',  # no capitals to go by (a transcript, a chat): the taggers' business
    '"Fine," said, Grace',  # punctuation between the verb and the words
])
def test_no_speaker_without_a_quotation_a_verb_and_capitalised_words(text):
    assert speakers(text) == []


def test_an_everyday_word_named_as_a_speaker_is_flagged(spans_of):
    assert ("Player", "PERSON") in spans_of('"That was owed to me," says Player.')


def test_a_verb_of_saying_after_a_name_is_no_part_of_it(spans_of):
    """'Grace said, "Fine."' gave the organisation "Grace said" (the tagger reads words without
    their punctuation); in cased writing a reporting verb in lower case ends the name. A capitalised
    one is part of a title ("Dark Room Notes")."""
    assert spans_of('Grace said, "Fine."') == [("Grace", "PERSON")]
    assert ("Dark Room Notes", "ORGANIZATION") in spans_of("Dark Room Notes formed in Galway.")
