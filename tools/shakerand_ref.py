# SPDX-License-Identifier: MIT OR Apache-2.0
"""Readable reference model of shakerand's constructions, in plain Python.

It shares no code with the C library: the vector generator uses it to write
vectors/shakerand.json, and the tests check it against hashlib and
pycryptodome (TurboSHAKE, SHAKE) and against RandomSHAKE's published output
before trusting it for anything else.
"""

MASK64 = (1 << 64) - 1

ROUND_CONSTANTS = [
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
]

# rho offsets r[x][y], lane (x, y) at index x + 5y
RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
       41, 45, 15, 21, 8, 18, 2, 61, 56, 14]


def rol(v, n):
    return ((v << n) | (v >> (64 - n))) & MASK64 if n else v


def keccak_p1600(lanes, rounds):
    """The last `rounds` rounds of Keccak-f[1600] on 25 integer lanes."""
    a = list(lanes)
    for rc in ROUND_CONSTANTS[24 - rounds:]:
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x - 1) % 5] ^ rol(c[(x + 1) % 5], 1) for x in range(5)]
        a = [a[i] ^ d[i % 5] for i in range(25)]
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = rol(a[x + 5 * y], RHO[x + 5 * y])
        a = [b[i] ^ (~b[(i % 5 + 1) % 5 + 5 * (i // 5)] & b[(i % 5 + 2) % 5 + 5 * (i // 5)])
             for i in range(25)]
        a[0] ^= rc
    return a


def to_bytes(lanes):
    return b"".join(v.to_bytes(8, "little") for v in lanes)


def from_bytes(data):
    return [int.from_bytes(data[8 * i:8 * i + 8], "little") for i in range(25)]


class Sponge:
    """Keccak sponge with a one-byte domain suffix (pad10*1 after it)."""

    def __init__(self, rate, rounds, domain):
        self.rate, self.rounds, self.domain = rate, rounds, domain
        self.state = bytearray(200)
        self.pos = 0
        self.squeezing = False

    def permute(self):
        self.state = bytearray(to_bytes(keccak_p1600(from_bytes(self.state), self.rounds)))

    def absorb(self, data):
        assert not self.squeezing
        for byte in data:
            self.state[self.pos] ^= byte
            self.pos += 1
            if self.pos == self.rate:
                self.permute()
                self.pos = 0

    def finalize(self):
        self.state[self.pos] ^= self.domain
        self.state[self.rate - 1] ^= 0x80
        self.permute()
        self.pos = 0
        self.squeezing = True

    def squeeze(self, n):
        if not self.squeezing:
            self.finalize()
        out = bytearray()
        while len(out) < n:
            if self.pos == self.rate:
                self.permute()
                self.pos = 0
            take = min(n - len(out), self.rate - self.pos)
            out += self.state[self.pos:self.pos + take]
            self.pos += take
        return bytes(out)


def turboshake128(message, domain, n):
    s = Sponge(168, 12, domain)
    s.absorb(message)
    return s.squeeze(n)


def turboshake256(message, domain, n):
    s = Sponge(136, 12, domain)
    s.absorb(message)
    return s.squeeze(n)


def shake128(message, n):
    s = Sponge(168, 24, 0x1F)
    s.absorb(message)
    return s.squeeze(n)


def shake256(message, n):
    s = Sponge(136, 24, 0x1F)
    s.absorb(message)
    return s.squeeze(n)


ENGINE_ROUNDS = {"turboshake256": 12, "shake256": 24}

X8_KEY_DOMAIN = 0x20
X8_LANE_DOMAIN = 0x21
X8_OUTPUT_BYTES = 1056  # of each 1088-byte refill; the last 32 key the next


def x8_stream(seed, n):
    """The first n bytes of turboshake256x8 seeded with `seed`
    (docs/engines.md): 8 TurboSHAKE256 lanes keyed by K || lane, words
    interleaved, the last 32 bytes of each refill becoming the next key."""
    key = turboshake256(seed, X8_KEY_DOMAIN, 32)
    out = bytearray()
    while len(out) < n:
        blocks = [turboshake256(key + bytes([j]), X8_LANE_DOMAIN, 136) for j in range(8)]
        refill = b"".join(blocks[j][8 * w:8 * w + 8] for w in range(17) for j in range(8))
        out += refill[:X8_OUTPUT_BYTES]
        key = refill[X8_OUTPUT_BYTES:]
    return bytes(out[:n])


CHACHA_CONSTANTS = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)  # "expand 32-byte k"
MASK32 = (1 << 32) - 1


def chacha8_block(key_words, counter):
    """The ChaCha8 block function on key (8 words), a zero nonce and
    `counter`, as chacha8rand uses it: only the key words are added back
    after the rounds (C2SP chacha8rand)."""
    x = list(CHACHA_CONSTANTS) + list(key_words) + [counter, 0, 0, 0]

    def qr(a, b, c, d):
        def rotl(v, r):
            return ((v << r) | (v >> (32 - r))) & MASK32
        x[a] = (x[a] + x[b]) & MASK32
        x[d] = rotl(x[d] ^ x[a], 16)
        x[c] = (x[c] + x[d]) & MASK32
        x[b] = rotl(x[b] ^ x[c], 12)
        x[a] = (x[a] + x[b]) & MASK32
        x[d] = rotl(x[d] ^ x[a], 8)
        x[c] = (x[c] + x[d]) & MASK32
        x[b] = rotl(x[b] ^ x[c], 7)

    for _ in range(4):  # 4 double rounds are 8 rounds
        qr(0, 4, 8, 12), qr(1, 5, 9, 13), qr(2, 6, 10, 14), qr(3, 7, 11, 15)
        qr(0, 5, 10, 15), qr(1, 6, 11, 12), qr(2, 7, 8, 13), qr(3, 4, 9, 14)
    for w in range(4, 12):
        x[w] = (x[w] + key_words[w - 4]) & MASK32
    return x


def chacha8rand_stream(seed, n):
    """The first n bytes of chacha8rand keyed with the 32-byte `seed`
    (C2SP chacha8rand): each iteration is 16 blocks with counters 0..15,
    interleaved four blocks at a time (word w of block j of a group is the
    group's word 4w + j); its last 32 bytes key the next iteration and the
    992 before them are output."""
    if len(seed) != 32:
        raise ValueError("a chacha8rand seed is 32 bytes")
    key = seed
    out = bytearray()
    while len(out) < n:
        words = [int.from_bytes(key[4 * i:4 * i + 4], "little") for i in range(8)]
        blocks = [chacha8_block(words, c) for c in range(16)]
        iteration = bytearray()
        for g in range(4):
            for w in range(16):
                for j in range(4):
                    iteration += blocks[4 * g + j][w].to_bytes(4, "little")
        out += iteration[:992]
        key = bytes(iteration[992:])
    return bytes(out[:n])


# The engine kinds as the C core's table (src/engine.c) lists them: name,
# the C enum's value, the seed length required (0: any), the bytes handed
# out between ratchets or rekeys. The vector file records this table and
# every front end's copy is checked against it.
KINDS = [
    ("turboshake256", 1, 0, 8 * 136),
    ("shake256", 2, 0, 8 * 136),
    ("turboshake256x8", 3, 0, X8_OUTPUT_BYTES),
    ("chacha8rand", 4, 32, 992),
]


def engine_stream(kind, seed, n):
    """The first n bytes of engine `kind` seeded with `seed` (docs/engines.md):
    the XOF's squeeze, in periods of 8 blocks of 136 bytes; between periods
    the state is permuted once more, bytes 0..31 are zeroed, and it is
    permuted again."""
    if kind == "turboshake256x8":
        return x8_stream(seed, n)
    if kind == "chacha8rand":
        return chacha8rand_stream(seed, n)
    rounds = ENGINE_ROUNDS[kind]
    s = Sponge(136, rounds, 0x1F)
    s.absorb(seed)
    s.finalize()
    lanes = from_bytes(s.state)
    out = bytearray()
    while len(out) < n:
        for block in range(8):
            out += to_bytes(lanes)[:136]
            lanes = keccak_p1600(lanes, rounds)
        lanes = [0, 0, 0, 0] + lanes[4:]
        lanes = keccak_p1600(lanes, rounds)
    return bytes(out[:n])


def string_seed(text):
    """The seed bytes of a string (docs/engines.md, "Seeds"): its UTF-8
    encoding. A string with an unpaired surrogate has none: UnicodeEncodeError."""
    return text.encode("utf-8")


# The system generator's policy (docs/system.md): the reseed budget and the
# seed derivation. The C core holds these values in src/policy.h, the
# pure-Go build in go/system_purego.go and the pure-Java path in
# JavaSystemGenerator.java; the vector file records this dict
# ("system_policy") and each of the three is tested against it. Domain
# bytes are TurboSHAKE256's D.
SYSTEM_POLICY = {
    # Reseed after this many bytes of output or this many seconds, whichever
    # comes first; the clock is read once per clock_check_bytes drawn, and a
    # large request is served in pieces of at most max_piece_bytes, each
    # through the same checks.
    "reseed_bytes": 16 << 20,
    "reseed_seconds": 60,
    "clock_check_bytes": 4096,
    "max_piece_bytes": 1 << 20,
    # The conditioner (src/entropy/conditioner.c): TurboSHAKE256 with this
    # domain byte of os_seed_bytes from the operating system, hw_seed_bytes
    # from each healthy hardware source (64-bit words, little-endian; none
    # in the pure-Go and pure-Java builds) and a counter of counter_bytes
    # (little-endian); seed_material_bytes of its output are the material.
    "conditioner_domain": 0x22,
    "os_seed_bytes": 32,
    "hw_seed_bytes": 32,
    "counter_bytes": 8,
    "seed_material_bytes": 64,
    # A reseed with the caller's bytes (shakerand_system_reseed_with,
    # Java's setSeed) appends TurboSHAKE256(extra, extra_domain) of
    # extra_digest_bytes to the material.
    "extra_domain": 0x23,
    "extra_digest_bytes": 32,
    # chacha8rand is keyed with TurboSHAKE256(material, this domain)[0, 32);
    # turboshake256x8 takes the material itself as its seed.
    "chacha8rand_key_domain": 0x24,
}


# After a restore the process saw, the seeds of the C core, pure Go, pure
# Java and JavaScript in Node also mix in a CPU-jitter sample's digest
# (src/policy.h, docs/system.md "Snapshots and clones"); the vector file's
# "restore_derivation" holds fixed cases. Not in SYSTEM_POLICY: material
# without a digest is what it always was, and each implementation holds its
# material after a restore to this model in its own tests.
JITTER_DOMAIN = 0x25
JITTER_DIGEST_BYTES = 32
RESTORE_CONDITIONER_DOMAIN = 0x26


def jitter_digest(deltas):
    """TurboSHAKE256 of the sample's timer deltas, each a 64-bit word,
    little-endian, with D = 0x25: 32 bytes."""
    message = b"".join((d & MASK64).to_bytes(8, "little") for d in deltas)
    return turboshake256(message, JITTER_DOMAIN, JITTER_DIGEST_BYTES)


def system_conditioner(os_bytes, hw_words, counter, jitter=None):
    """The seed material from the sources (src/entropy/conditioner.c):
    TurboSHAKE256(os || hw words || counter, D = 0x22)[0, 64); after a
    restore, with `jitter` the sample's digest,
    TurboSHAKE256(os || hw words || counter || jitter, D = 0x26)[0, 64)."""
    p = SYSTEM_POLICY
    if len(os_bytes) != p["os_seed_bytes"] or len(hw_words) * 8 % p["hw_seed_bytes"]:
        raise ValueError("os_seed_bytes from the OS, hw_seed_bytes from each hardware source")
    message = (os_bytes + b"".join(w.to_bytes(8, "little") for w in hw_words) +
               counter.to_bytes(p["counter_bytes"], "little"))
    if jitter is None:
        return turboshake256(message, p["conditioner_domain"], p["seed_material_bytes"])
    if len(jitter) != JITTER_DIGEST_BYTES:
        raise ValueError("the jitter digest is JITTER_DIGEST_BYTES")
    return turboshake256(message + jitter, RESTORE_CONDITIONER_DOMAIN, p["seed_material_bytes"])


def system_engine_seed(kind, material, extra=None):
    """The seed the system generator gives an engine of `kind` from the
    material (src/system_seed.c): the material, followed by the digest of
    `extra` when given (None: an automatic seed, no digest; b"": a reseed
    with no bytes, which still appends the digest of nothing);
    chacha8rand takes TurboSHAKE256 of that with D = 0x24 as its key."""
    p = SYSTEM_POLICY
    if extra is not None:
        material = material + turboshake256(extra, p["extra_domain"], p["extra_digest_bytes"])
    if kind == "chacha8rand":
        return turboshake256(material, p["chacha8rand_key_domain"], 32)
    if kind == "turboshake256x8":
        return material
    raise ValueError("the system generator runs chacha8rand or turboshake256x8")
