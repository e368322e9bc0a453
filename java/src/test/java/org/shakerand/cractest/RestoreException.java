// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand.cractest;

/** jdk.crac's RestoreException (see Resource). */
public class RestoreException extends Exception {
    private static final long serialVersionUID = 1L;
}
