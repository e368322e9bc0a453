// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand.cractest;

/** jdk.crac's CheckpointException (see Resource). */
public class CheckpointException extends Exception {
    private static final long serialVersionUID = 1L;
}
