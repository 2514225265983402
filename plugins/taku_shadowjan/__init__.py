"""The `shadowjan` ruleset: シャドー・ジャン2."""
