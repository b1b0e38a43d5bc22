import { ComingSoon } from '../../../core';

export function EmployeePanel() {
  return <ComingSoon title="超级员工" description="AI超级员工：为您的账号批量产出口播内容。该功能正在开发中。" />;
}
