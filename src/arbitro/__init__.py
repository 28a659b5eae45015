"""arbitro: the FIDE Laws of Chess as working software.

The package has a pure core (time controls, the clock, and later the Laws engine) that knows
nothing of files, sockets or wall clocks: time arrives as integer milliseconds. Adapters (the
command line, later notation, persistence, the web application and the audit) sit around it.
"""

from arbitro.clock import Clock
from arbitro.color import BLACK, WHITE, ByColor, Color
from arbitro.errors import ArbitroError, ClockError, TimeControlError
from arbitro.gamekind import Kind
from arbitro.timecontrol import DelayKind, Period, TimeControl

__version__ = "0.1.0"

__all__ = [
    "BLACK",
    "WHITE",
    "ArbitroError",
    "ByColor",
    "Clock",
    "ClockError",
    "Color",
    "DelayKind",
    "Kind",
    "Period",
    "TimeControl",
    "TimeControlError",
    "__version__",
]
