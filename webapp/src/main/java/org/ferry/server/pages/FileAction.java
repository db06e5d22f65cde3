package org.ferry.server.pages;

import java.util.List;

/**
 * The file manager's main form: both panes' state and selections, the rename fields, and the
 * transfer options. {@code action} names the button pressed. A checkbox left unchecked sends
 * nothing: its field is null, which the page submits as an explicit false (the e-mail boxes start
 * checked, so an untouched form asks for Globus' default: mail on every outcome).
 *
 * @param action {@code transfer-right} (left to right), {@code transfer-left}, {@code delete-left},
 *     {@code delete-right}, {@code rename-left}, {@code rename-right}
 * @param left the left endpoint's id
 * @param lpath the left directory
 * @param right the right endpoint's id
 * @param rpath the right directory
 * @param leftSelected the left names selected (directories end in {@code /})
 * @param rightSelected the right names selected
 * @param leftNewName the new name of the one left entry to rename
 * @param rightNewName the new name of the one right entry to rename
 * @param syncLevel empty (always copy), {@code exists}, {@code size}, {@code mtime} or {@code checksum}
 * @param checksumAlgorithm what the verify step and sync level 3 compare ({@code MD5}, {@code ADLER32},
 *     {@code SHA1}, {@code SHA256}, {@code SHA512}, {@code CRC32C}); absent or blank: MD5
 * @param verifyChecksum compare checksums after each file
 * @param encrypt encrypt the data channels
 * @param label the task's label
 * @param deadline {@code yyyy-MM-ddTHH:mm} in the browser's time zone
 * @param tzOffsetMinutes the browser's {@code Date.getTimezoneOffset()} (minutes UTC is ahead), set by a script; absent: the deadline is UTC
 * @param notifySucceeded mail the owner when the task succeeds
 * @param notifyFailed mail the owner when it fails
 * @param notifyInactive mail the owner when it needs attention
 */
public record FileAction(
        String action,
        String left,
        String lpath,
        String right,
        String rpath,
        List<String> leftSelected,
        List<String> rightSelected,
        String leftNewName,
        String rightNewName,
        String syncLevel,
        String checksumAlgorithm,
        Boolean verifyChecksum,
        Boolean encrypt,
        String label,
        String deadline,
        Integer tzOffsetMinutes,
        Boolean notifySucceeded,
        Boolean notifyFailed,
        Boolean notifyInactive) {}
