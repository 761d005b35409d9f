"""Entry point of the frozen app: the normal ``redactdesk`` command line
(``redactdesk gui PROJECT`` opens the window, ``redactdesk demo`` the demo project)."""

import sys

from redactdesk.cli.main import main

if __name__ == "__main__":
    import multiprocessing

    multiprocessing.freeze_support()  # Dask's local workers are spawned processes of this executable
    sys.exit(main())
