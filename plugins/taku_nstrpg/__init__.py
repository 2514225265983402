"""The `nstrpg` ruleset: ニンジャスレイヤーTRPG 2版 コアルール."""
