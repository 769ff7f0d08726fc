"""Rule file -> RuleSpec: YAML with places, the declared schema, `extends:` and versions, the semantic pass."""
