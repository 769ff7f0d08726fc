"""Rule files read as the rules players read, and what changes between two."""
