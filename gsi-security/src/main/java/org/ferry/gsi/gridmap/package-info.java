/** Grid-mapfile parsing and DN-to-local-user authorization (reference 4.4; Globus gss_assist gridmap). */
package org.ferry.gsi.gridmap;
