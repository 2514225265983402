"""The `yodomi` ruleset: 澱み流れ."""
