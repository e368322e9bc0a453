# SPDX-License-Identifier: MIT OR Apache-2.0
"""random.Random's whole API on the system generator: dice, cards, draws."""
import shakerand

rng = shakerand.SystemRandom()             # like random.SystemRandom, much faster

deck = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]
rng.shuffle(deck)
hand = deck[:5]
dice = [rng.randint(1, 6) for _ in range(3)]
winners = rng.sample(range(1, 50), 6)
colour = rng.choices(["red", "green", "blue"], weights=[5, 3, 2])[0]
jitter = rng.gauss(0.0, 0.05)

print(hand, dice, sorted(winners), colour, round(jitter, 4))
assert len(set(deck)) == 52 and all(1 <= d <= 6 for d in dice)
