import sys

from redactdesk.cli.main import main

sys.exit(main())
