// SPDX-License-Identifier: MIT OR Apache-2.0
// A module worker for index.html: loads the package in its own agent and
// posts what its generator gives (by feature detection: the page's
// SHAKERAND_KERNEL is not this agent's global).
import * as s from '/js/lib/browser.mjs';

postMessage({ kernel: s.kernel, bytes: Array.from(s.randomBytes(32)) });
