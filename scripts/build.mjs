#!/usr/bin/env node
import { build, ensureInstalled, typecheckScripts } from './lib/steps.mjs';

ensureInstalled();
build();
typecheckScripts();
