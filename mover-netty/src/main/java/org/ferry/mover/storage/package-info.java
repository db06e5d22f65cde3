/**
 * The storage interface of the GridFTP server (the Globus "DSI"): file system access confined to
 * one root directory, addressed by virtual absolute paths ({@code /} = the root).
 */
package org.ferry.mover.storage;
