#!/usr/bin/env bash
# Run a command with another rack check where the reader finds it (models/rack_check.onnx), the shipped file
# put back after, however the command ends.
#
#   bash docs/experiments/scripts-s34/with-rack-check.sh RACK_CHECK.onnx COMMAND [ARG...]
set -euo pipefail
cd "$(dirname "$0")/../../.."
check=$1; shift
kept=$(mktemp -d)
cp models/rack_check.onnx $kept/
trap 'cp $kept/rack_check.onnx models/' EXIT
cp "$check" models/rack_check.onnx
"$@"
