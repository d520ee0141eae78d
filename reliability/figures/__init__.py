"""One module of figures per chapter topic. Each function returns the figure and the
numbers drawn on it, so a chapter can print or glue exactly what the reader sees."""
