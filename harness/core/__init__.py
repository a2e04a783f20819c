"""The ground floor: what every stage needs and that knows no stage.

Owns the project's location and its ini keys (``project``), the per-run token and record
authenticator (``run_token``), the one ELF reader (``binary_info``), the Cortex-M fault decoder
(``crash``), TFLite operator names (``op_names``), process-group handling (``procs``), shutdown
hooks (``shutdown``), optional-extra checks (``extras``) and argument types (``argtypes``).

May import: the standard library and ``harness`` itself (``REPO_ROOT``), nothing else of the
harness. Every other folder may import from here.
"""
