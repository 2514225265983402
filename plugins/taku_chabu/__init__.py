"""The `chabu` ruleset: ニンジャスレイヤー：theチャブＲＰＧ."""
