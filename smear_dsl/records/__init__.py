"""smear-record/1: the verifier and the replay of a record."""
