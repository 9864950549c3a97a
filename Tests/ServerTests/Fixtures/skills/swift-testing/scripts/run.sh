#!/bin/sh
swift test
