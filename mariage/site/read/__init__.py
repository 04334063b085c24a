"""Stage 1, read: the project (`project`), each language's catalog with every check applied
(`catalogs`, `checks`, `file_checks`), the termbase (`termbase`) and the translator workflow
(`translate`). Nothing here renders a page or runs the engine."""
