"""The site generator: catalogs, page templates, worked examples and the build that joins them.

It reads the project (profile, catalogs, templates, examples) and asks the engine for every
number it prints; the engine never imports it.
"""

EXAMPLE_TIMEOUT = 30.0      # seconds for all doctests of one page (doctests.DoctestWorker)
MAX_SECONDS = 3600.0        # no time limit of the build (a page's doctests, the lock) is longer


def seconds(value: object, name: str = "a time limit") -> float:
    """A time limit given by a user (mkdocs.yml, --timeout): a finite number of seconds above
    0 and at most MAX_SECONDS; anything else is a ValueError saying what to write."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"{name} is a number of seconds, not {type(value).__name__}")
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{name} is a number of seconds, not {value!r}") from None
    if not 0 < number <= MAX_SECONDS:      # also refuses NaN, which compares false
        raise ValueError(f"{name} must be more than 0 and at most {MAX_SECONDS:g} seconds, "
                         f"not {value}")
    return number
