import 'reflect-metadata';
import '@blueprintjs/core/lib/css/blueprint.css';
import './styles.css';
import { createRoot } from 'react-dom/client';
import { plugins, target } from 'virtual:workbench-plugins';
import { ContainerProvider, createWorkbenchContainer, isHelperHost, pluginAllowedOnHost } from '../core';
import { App } from './App';
import { installRemScaler } from './rem-scaler';
import { installIconLoader } from './icons';
import { shellModule } from './shell-commands';

// Build time chose the target's plugins; run time checks the host rule against where we actually are.
const helperHost = isHelperHost(window.location.hostname, target.helperHosts);
const active = plugins.filter((p) => pluginAllowedOnHost(p.manifest, helperHost)).map((p) => p.plugin);
const container = createWorkbenchContainer(active, { host: window.location.host, target: target.name, isHelperHost: helperHost }, [shellModule]);

installIconLoader();
installRemScaler();
createRoot(document.getElementById('root')!).render(
  <ContainerProvider container={container}>
    <App />
  </ContainerProvider>,
);
