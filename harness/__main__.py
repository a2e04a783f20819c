"""``python -m harness ...``: the harness command line without installing the package."""

import sys

from harness.cli import main

sys.exit(main())
