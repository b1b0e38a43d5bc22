import { lazyPanels, definePlugin } from '../../core';
import { EMPLOYEE_ROUTE, EmployeeState, EmployeeStateToken, TALKING_ROUTE } from './employee-state';

/** 超级员工 (issue 32): bundled for every host but the helper hosts. My employees, the 招聘 catalogue, and talking face to face. */
export const plugin = definePlugin('employee', {
  services: [[EmployeeStateToken, EmployeeState]],
  panels: lazyPanels({
    [EMPLOYEE_ROUTE]: () => import('./panels/OfficePanel'),
    [TALKING_ROUTE]: () => import('./panels/TalkingPanel'),
  }),
});
