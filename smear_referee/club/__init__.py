"""A club's seasons: members, ratings from every finished game, a ladder, and an export anyone can verify."""
