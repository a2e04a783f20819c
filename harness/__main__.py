"""``python -m harness ...``: the harness command line without installing the package."""

import sys

from harness.cli.main import main

sys.exit(main())
