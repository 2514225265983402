"""チンチロリン (Chinchirorin), a third-party taku ruleset: the example of docs/plugins.md.

Rules (the common house rules of the game): each player rolls three dice, up to
three tries, until they get a hand. 4-5-6 (シゴロ) wins double; 1-2-3 (ヒフミ)
loses double; three of a kind (アラシ) is the strongest, 1-1-1 (ピンゾロ) above
all; a pair and an odd die makes the odd die the point (目, 1 to 6); no hand
after the last try is 目なし. The GM closes the round: the best hand wins.
"""
