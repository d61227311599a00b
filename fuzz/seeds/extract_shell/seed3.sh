#!/bin/sh
curl -sf "$ENDPOINT/healthz"
