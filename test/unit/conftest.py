"""pytest configuration: hypothesis runs the same examples on every machine.

CI runs on a fresh, possibly loaded 2-core machine: derandomized examples make a failure
reproducible from the log, and the too-slow health check (which measures the machine, not the
code) is off. Each test still sets its own max_examples and deadline.
"""

from hypothesis import HealthCheck, settings

settings.register_profile("meshc", derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("meshc")
