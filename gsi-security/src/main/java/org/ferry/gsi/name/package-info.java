/** Distinguished names in the OpenSSL "oneline" form that Globus tools print and grid-mapfiles hold. */
package org.ferry.gsi.name;
