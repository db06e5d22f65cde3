/**
 * The JSON documents of the REST API (docs/rest-api.md) as records: the Globus Transfer API's
 * field names ({@code DATA_TYPE}, snake_case) are given by Jackson annotations. Request
 * documents are read strictly (an unknown field is a 400 naming it); services validate their
 * values and know nothing of HTTP.
 */
package org.ferry.api.document;
