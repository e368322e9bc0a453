# SPDX-License-Identifier: MIT OR Apache-2.0
"""Tokens, passwords and IDs: shakerand in place of secrets and uuid."""
import string

import shakerand as secrets  # the same functions, signatures and errors

reset_token = secrets.token_urlsafe()      # 32 random bytes, URL-safe base64
api_key = secrets.token_hex(16)            # 128 bits in hexadecimal
alphabet = string.ascii_letters + string.digits
password = "".join(secrets.choice(alphabet) for _ in range(20))
pin = f"{secrets.randbelow(10**6):06d}"
request_id = secrets.uuid4()               # a uuid.UUID
row_id = secrets.uuid7()                   # time-ordered, for database keys

print(reset_token, api_key, password, pin, request_id, row_id, sep="\n")
assert secrets.compare_digest(api_key, api_key)
assert request_id.version == 4 and row_id.version == 7
