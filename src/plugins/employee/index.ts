import { definePlugin } from '../../core';
import { EmployeePanel } from './panels/EmployeePanel';

/** 超级员工: bundled for every host but the helper hosts. Its screens are not in the specification yet. */
export const plugin = definePlugin('employee', { panels: ['/employee', '/employee/talking'].map((route) => ({ route, component: EmployeePanel, comingSoon: true })) });
