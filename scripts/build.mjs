#!/usr/bin/env node
import { build, ensureInstalled } from './lib/steps.mjs';

ensureInstalled();
build();
