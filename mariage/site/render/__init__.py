"""Stage 3, render: the sandboxed Jinja environment (`templating`), the site's sources and
template pages (`pages`), the rulings page and its links (`rulings`), the score sheet
(`tables`), the variants' pages (`variants`) and the theme's strings (`interface`)."""
