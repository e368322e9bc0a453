// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.LogRecord;

/**
 * A java.util.logging handler that draws a UUID for every record, as a logging back end that
 * tags its records might (ProcessTest installs it in a child JVM through a logging config).
 */
public final class DrawingLogHandler extends Handler {
    @Override
    public void publish(LogRecord record) {
        UUID id = UUID.randomUUID();
        System.out.println("handler.uuid.version=" + id.version());
        System.out.println("handler.message=" + record.getMessage());
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
