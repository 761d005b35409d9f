import sys

from redactdesk.cli.main import main

if __name__ == "__main__":  # worker processes (spawned) import this module as __mp_main__: run nothing then
    sys.exit(main())
