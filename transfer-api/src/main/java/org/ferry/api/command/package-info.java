/**
 * Domain commands: what a request asks of the service, checked and in the domain's own types.
 * Controllers and web pages map their requests to these records (every field of a request
 * honoured or refused by name there) and map the services' results back; no service or
 * scheduler class sees a wire document ({@code org.ferry.api.document}), which ArchitectureTest
 * holds.
 */
package org.ferry.api.command;
