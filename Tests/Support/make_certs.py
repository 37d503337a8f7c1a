"""Writes a throwaway CA and a certificate for 127.0.0.1/localhost (trustme) into DIR:
ca.pem, server.pem (chain), server.key."""
import sys

import trustme

directory = sys.argv[1]
ca = trustme.CA()
cert = ca.issue_cert("localhost", "127.0.0.1")
ca.cert_pem.write_to_path(directory + "/ca.pem")
cert.private_key_pem.write_to_path(directory + "/server.key")
cert.private_key_and_cert_chain_pem.write_to_path(directory + "/server.pem")
