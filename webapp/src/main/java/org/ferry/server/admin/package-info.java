/** {@code ferry-server user ...}: account management on the server's database. */
package org.ferry.server.admin;
