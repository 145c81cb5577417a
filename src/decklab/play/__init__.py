"""Playing in the terminal: the plain line mode (screen readers, pipes) for now."""
