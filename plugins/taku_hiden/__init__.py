"""The `hiden` ruleset: 秘伝の声."""
