/**
 * Trust anchors from an OpenSSL hashed CA directory and GSI path validation (RFC 5280 with the
 * RFC 3820 proxy rules, Globus signing policies, CRLs). This is the only package that uses canl
 * (eu.eu-emi.security:canl); a change of validation library touches only this package.
 */
package org.ferry.gsi.trust;
