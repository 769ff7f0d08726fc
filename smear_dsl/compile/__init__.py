"""RuleSpec -> CompiledRules for one table: flat tables and closures, the checks of setups, the deal."""
