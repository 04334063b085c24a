"""What one `mkdocs serve` build keeps for the next (and `mkdocs build` from one language to
the next): the pages' conversions, search sections and theme files (conversions.py) and the
pages' theme renders (renders.py), installed and put back together."""

from __future__ import annotations

from .conversions import Conversions, Sections, ThemeFiles, _KeptFromLastBuild
from .renders import Renders


class KeptForServe:
    """What one serve build keeps for the next: pages' conversions, search sections, theme
    renders (plugins/renders.py) and the theme's files; `serving=False`, for `mkdocs build`:
    the theme's files only."""

    def __init__(self, serving: bool = True) -> None:
        self.conversions, self.sections, self.theme = Conversions(), Sections(), ThemeFiles()
        self.renders = Renders()
        self._all: tuple[_KeptFromLastBuild, ...] = \
            (self.conversions, self.sections, self.renders, self.theme) if serving \
            else (self.theme,)

    def install(self) -> None:
        for kept in self._all:
            kept.install()

    def uninstall(self) -> None:
        for kept in self._all:
            kept.uninstall()

    def forget(self) -> None:
        for kept in self._all:
            kept.forget()

    def summary(self) -> str:
        c, s, r, t = self.conversions, self.sections, self.renders, self.theme
        return (f"pages converted {c.computed} (kept from the last build {c.reused}), "
                f"indexed {s.computed} (kept {s.reused}), rendered {r.computed} (kept "
                f"{r.reused}), theme files listed {t.computed} (kept {t.reused})")
