"""Shared test settings."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# No deadline: CI machines are small and shared; speed is measured by benchmarks, not tests.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "default")
