"""Stage 4, build: the pipeline that joins the stages into the Markdown tree (`generate`) and
the publication of a built site (`publish`)."""
