"""MkDocs glue: thin plugins that call the plain modules of the mariage package."""
