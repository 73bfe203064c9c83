"""pytest configuration: hypothesis runs the same examples on every machine.

CI runs on a fresh, possibly loaded 2-core machine: derandomized examples make a failure
reproducible from the log, and the too-slow health check (which measures the machine, not the
code) is off. Each test still sets its own max_examples and deadline.
"""

import os

from hypothesis import HealthCheck, settings

# JAX's CPU backend makes its host devices once, when it starts: 32 give the 8x4 meshes of the
# model zoo (test_zoo) whichever test module imports jax first (2x4 and 2x2 meshes use 8 or 4)
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=32")

settings.register_profile("meshc", derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("meshc")
