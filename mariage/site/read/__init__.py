"""Stage 1, read: the project (`project`), each language's catalog with every check applied
(`catalogs`, `po_messages`, `template_drift`; the table `checks`, with `message_checks`,
`facts` and `file_checks`), the termbase (`termbase`) and the translator workflow
(`translate`). Nothing here renders a page or runs the engine."""
