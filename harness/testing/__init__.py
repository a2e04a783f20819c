"""Test support, not shipped: the fakes, test firmware builders and recorded-log helpers the tests share.

``mini_fw`` builds the runner tests' self-contained firmware (``harness/testdata/fw``), ``hil_fw`` the
HIL tests' firmware (``tests/hil/fw``) with its pytest fixtures, ``renode_fake`` is a stand-in
``renode`` for the Renode session tests, ``recorded_logs`` judges the recorded logs of
``harness/testdata/logs``. Only tests and benchmarks import this package; no module of the harness
does. It is left out of the wheel (``pyproject.toml`` ``[tool.setuptools.packages.find]``), like
``harness/testdata``.
"""
